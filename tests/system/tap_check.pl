# tap_check.pl - read TAP on standard input with Perl's TAP::Parser (the
# parser behind `prove`, a consumer Tally did not write) and print what it
# understood, one key=value line; parse errors follow, one per line.
use strict;
use warnings;
use TAP::Parser;

local $/;
my $tap = <STDIN>;
my $p = TAP::Parser->new({ tap => $tap });
while (defined $p->next) { }
printf "version=%d plan=%s tests_run=%d passed=%d failed=%s skipped=%d parse_errors=%d\n",
    $p->version, $p->plan, $p->tests_run, scalar($p->passed),
    join(',', $p->failed) || '-', scalar($p->skipped), scalar($p->parse_errors);
print "parse_error: $_\n" for $p->parse_errors;
