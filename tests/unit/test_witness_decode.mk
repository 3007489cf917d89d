UNIT_SRCS_test_witness_decode := tests/witness/decode.c
