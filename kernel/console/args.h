/*
 * args.h - split a command line into words.
 *
 * Words are separated by blanks; 'single' or "double" quotes group a word
 * with blanks in it (no escapes inside).  The line is split in place.
 */
#ifndef TALLY_ARGS_H
#define TALLY_ARGS_H

/*
 * Returns argc (0 for a blank line), -E2BIG if there are more than max
 * words, or -EINVAL for an unterminated quote.  argv[argc] is NULL when
 * there is room.
 */
int args_split(char *line, char **argv, int max);

#endif
