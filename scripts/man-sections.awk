# Turns the mdoc that swift-argument-parser's generate-manual writes into a complete, warning-free page
# (run by scripts/gen-man.sh; `awk -v sections=man/sections.mdoc -f scripts/man-sections.awk idflow.1`):
# - a blank line of a discussion becomes .Pp (groff warns "Empty input line" on each), and only before text;
# - indented discussion lines (examples, tables) become .Bd -literal displays, so they are not filled into
#   one paragraph and keep their ` \` continuation lines;
# - the exit-code table of the top-level discussion moves to EXIT STATUS (ArgumentParser writes only the
#   generic `.Ex -std`), so `idflow --help` stays its single source;
# - ENVIRONMENT and FILES from the sections file go before EXIT STATUS, and its EXAMPLES after it.
BEGIN {
    part = "before"
    while ((getline line < sections) > 0) {
        if (line ~ /^\.Sh EXAMPLES/) part = "after"
        if (line ~ /^\.\\"/) continue
        if (part == "before") before = before line "\n"; else after = after line "\n"
    }
    close(sections)
    nblock = 0; ntable = 0; pending_paragraph = 0; in_root = 0; replaced_exit = 0
}

function flush_block(   i, indent, smallest, is_table) {
    if (nblock == 0) return
    is_table = in_root
    for (i = 1; i <= nblock; i++) if (block[i] !~ /^ *[0-9]+  +[^ ]/) is_table = 0
    if (is_table) {
        for (i = 1; i <= nblock; i++) table[++ntable] = block[i]
        print "see"
        print ".Sx \"EXIT STATUS\" ."
    } else {
        smallest = -1
        for (i = 1; i <= nblock; i++) {
            match(block[i], /^ */)
            if (smallest < 0 || RLENGTH < smallest) smallest = RLENGTH
        }
        print ".Bd -literal -offset indent"
        for (i = 1; i <= nblock; i++) print substr(block[i], smallest + 1)
        print ".Ed"
    }
    nblock = 0
    pending_paragraph = 0
}

function exit_status(   i, line, code) {
    print ".Nm"
    print "exits with one of these codes; on failure it prints one JSON error line on stderr first."
    print ".Bl -tag -width 5n -compact"
    for (i = 1; i <= ntable; i++) {
        line = table[i]
        sub(/^ +/, "", line)
        code = line
        sub(/ .*/, "", code)
        sub(/^[0-9]+ +/, "", line)
        print ".It " code
        print line
    }
    print ".El"
}

/^\.Sh DESCRIPTION/ { in_root = 1 }
/^ / { block[++nblock] = $0; next }
{ flush_block() }
/^\./ && in_root && !/^\.Sh DESCRIPTION/ { in_root = 0 }
/^$/ { pending_paragraph = 1; next }
/^\.Sh "EXIT STATUS"/ { printf "%s", before; print; next }
/^\.Ex -std/ && ntable > 0 { exit_status(); replaced_exit = 1; next }
/^\.Sh AUTHORS/ { printf "%s", after }
/^\./ { pending_paragraph = 0; print; next }
{
    if (pending_paragraph) print ".Pp"
    pending_paragraph = 0
    print
}
END {
    if (!replaced_exit) { print "man-sections.awk: no exit-code table found in the description" > "/dev/stderr"; exit 1 }
}
