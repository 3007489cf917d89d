UNIT_SRCS_test_lineedit := kernel/lineedit.c
