UNIT_SRCS_test_page_heap := kernel/page.c kernel/heap.c
