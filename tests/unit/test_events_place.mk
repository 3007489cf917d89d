UNIT_SRCS_test_events_place := kernel/events/place.c
