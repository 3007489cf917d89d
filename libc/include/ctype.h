/* ctype.h - ASCII classification; bytes >= 0x80 are in no class. */
#ifndef TALLY_CTYPE_H
#define TALLY_CTYPE_H

int isdigit(int c);
int isxdigit(int c);
int isalpha(int c);
int isalnum(int c);
int isspace(int c);
int isupper(int c);
int islower(int c);
int isprint(int c);
int iscntrl(int c);
int ispunct(int c);
int toupper(int c);
int tolower(int c);

#endif
