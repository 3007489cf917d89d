/*
 * ctype.c - ASCII character classes.
 *
 * The kernel has no locale, so every byte >= 0x80, and EOF, is in no class
 * and is left alone by toupper/tolower.  Range tests instead of a table keep
 * the rules readable at a glance.
 */
#include <ctype.h>

int isdigit(int c)
{
	return c >= '0' && c <= '9';
}

int isxdigit(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}

int islower(int c)
{
	return c >= 'a' && c <= 'z';
}

int isalpha(int c)
{
	return isupper(c) || islower(c);
}

int isalnum(int c)
{
	return isalpha(c) || isdigit(c);
}

/* Space, \t, \n, \v, \f and \r, which sit together at 9..13. */
int isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

int isprint(int c)
{
	return c >= ' ' && c <= '~';
}

int iscntrl(int c)
{
	return (c >= 0 && c < ' ') || c == 0x7f;
}

int ispunct(int c)
{
	return isprint(c) && c != ' ' && !isalnum(c);
}

/* Case letters are 0x20 apart in ASCII. */
int toupper(int c)
{
	return islower(c) ? c - ('a' - 'A') : c;
}

int tolower(int c)
{
	return isupper(c) ? c + ('a' - 'A') : c;
}
