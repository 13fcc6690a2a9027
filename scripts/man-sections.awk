# Turns one page that swift-argument-parser's `generate-manual --multi-page` writes into a complete, warning-free
# page (run by scripts/gen-man.sh once per page):
#   awk -v root=1 -v options=OPTS -v commands=CMDS -v sections=man/sections.mdoc -f scripts/man-sections.awk idflow.1
#   awk -v options=OPTS -v configured=1 -f scripts/man-sections.awk idflow.token.get.1
# - The configuration options (GlobalOptions, in every command) are described once, in idflow.1 under
#   CONFIGURATION OPTIONS. OPTS is the "CONFIGURATION OPTIONS:" section of `idflow doctor --help-hidden` at a wide
#   COLUMNS (the group is hidden from each command's --help, so generate-manual leaves it out of the pages); it is
#   turned into that list. Should a page still carry one of those options (an item or a synopsis entry whose long
#   name is one of them) and the command accepts them (configured=1), it is dropped; such a page says instead that
#   idflow(1)'s configuration options are accepted; every page sends its reader there for the exit codes.
# - Pages are named idflow-token-get.1 (gen-man.sh renames the files), so .Dt and .Xr names take dashes, not dots.
# - idflow.1 lists every command's page (CMDS: "page<TAB>abstract" lines) under COMMANDS.
# - A blank line of a discussion becomes .Pp (groff warns "Empty input line" on each), and only before text;
#   indented discussion lines (examples, tables) become .Bd -literal displays, so they are not filled into one
#   paragraph and keep their ` \` continuation lines; a .Pp just before an item or the end of a list is dropped;
#   text lines are broken after each sentence (mandoc: "new sentence, new line").
# - In idflow.1, the exit-code table of the top-level discussion moves to EXIT STATUS (ArgumentParser writes only
#   the generic `.Ex -std`), so `idflow --help` stays its single source; ENVIRONMENT and FILES from the sections
#   file go before EXIT STATUS, and its EXAMPLES after it. Only idflow.1 keeps AUTHORS.
BEGIN {
    if (root) {
        part = "before"
        while ((getline line < sections) > 0) {
            if (line ~ /^\.Sh EXAMPLES/) part = "after"
            if (line ~ /^\.\\"/) continue
            if (part == "before") before = before line "\n"; else after = after line "\n"
        }
        close(sections)
        while ((getline line < commands) > 0) {
            split(line, field, "\t")
            listing = listing ".It Xr " field[1] " 1\n" escape(field[2]) "\n"
        }
        close(commands)
    }
    read_options()
    nblock = 0; ntable = 0; pending_paragraph = 0; in_root = 0; replaced_exit = 0; dropping = 0
}

function escape(text) {
    gsub(/\\/, "\\e", text)
    if (text ~ /^['.]/) text = "\\&" text
    return sentences(text)
}

# The text with a line break after each sentence: a full stop, question or exclamation mark, then spaces and a
# capital letter.
function sentences(text,   result) {
    result = ""
    while (match(text, /[.?!] +[A-Z]/)) {
        result = result substr(text, 1, RSTART) "\n"
        text = substr(text, RSTART + RLENGTH - 1)
    }
    return result text
}

# The long name of the option a `.It Fl …` or `.Op Fl …` line describes ("org-url"), or "".
function long_name(line) {
    if (!match(line, / -[a-z][a-z0-9-]*/)) return ""
    return substr(line, RSTART + 2, RLENGTH - 2)
}

# OPTS, one option a line ("  -v, --verbose           Text…"; a label wider than its column puts the text on
# the next line) → the mdoc list `configuration` and the set `global_option` of long names.
function read_options(   line, label, text, n, i, names, item, value) {
    n = 0
    while ((getline line < options) > 0) {
        if (line ~ /^  -/) {
            sub(/^  /, "", line)
            match(line, /^(-[A-Za-z0-9-]+, )*-[A-Za-z0-9-]+( <[^>]*>)?/)
            label = substr(line, 1, RLENGTH)
            text = substr(line, RLENGTH + 1)
            sub(/^ +/, "", text)
            labels[++n] = label; texts[n] = text
        } else if (line ~ /^   +[^ ]/ && n > 0) {
            sub(/^ +/, "", line)
            texts[n] = texts[n] (texts[n] == "" ? "" : " ") line
        }
    }
    close(options)
    if (n == 0) { print "man-sections.awk: no configuration options in " options > "/dev/stderr"; exit 1 }
    configuration = ".Bl -tag -width 6n\n"
    for (i = 1; i <= n; i++) {
        value = ""
        if (match(labels[i], / <[^>]*>/)) { value = substr(labels[i], RSTART + 2, RLENGTH - 3); labels[i] = substr(labels[i], 1, RSTART - 1) }
        gsub(/, /, " , ", labels[i])
        item = labels[i]
        gsub(/(^| )-/, " ", item)
        item = ".It Fl" item (value == "" ? "" : " Ar " value)
        configuration = configuration item "\n" escape(texts[i]) "\n"
        global_option[long_name(item)] = 1
    }
    configuration = configuration ".El\n"
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

# ArgumentParser writes .Pp after an option's list of values even before the next item, where it does nothing
# (mandoc: "skipping paragraph macro"): it is held until the next line shows whether it starts a paragraph.
held { held = 0; if ($0 !~ /^\.(It|El)/) print ".Pp" }
/^\.Pp$/ { flush_block(); held = 1; next }
# An item of a configuration option is dropped up to the next item or the end of the list.
/^\.It / { name = long_name($0); dropping = configured && /^\.It Fl / && (name in global_option) }
/^\.El/ { dropping = 0 }
dropping { next }
/^\.Op Fl / && configured { name = long_name($0); if (name in global_option) next }
/^\.Nd / { sub(/\."$/, "\"") }
/^\.Dt / { gsub(/\./, "-", $2) }
/^\.Xr / { gsub(/\./, "-", $2) }
/^\.Sh DESCRIPTION/ { in_root = root }
/^ / { block[++nblock] = $0; next }
{ flush_block() }
/^\./ && in_root && !/^\.Sh DESCRIPTION/ { in_root = 0 }
/^$/ { pending_paragraph = 1; next }
/^\.Sh "EXIT STATUS"/ && root {
    print ".Sh COMMANDS"
    print "Each command has its own page:"
    print ".Bl -tag -width Ds"
    printf "%s", listing
    print ".El"
    print ".Sh \"CONFIGURATION OPTIONS\""
    print "Every command accepts these options, after its name or before it:"
    print ".Ql idflow -v --profile staging register ... ."
    printf "%s", configuration
    printf "%s", before
    print
    next
}
/^\.Sh "EXIT STATUS"/ {
    if (configured) {
        print ".Pp"
        print "The configuration options of"
        print ".Xr idflow 1"
        print "are accepted too."
    }
    print
    print ".Ex -std"
    print "The codes and what they mean are listed in"
    print ".Xr idflow 1 ."
    see_also = 1
    next
}
/^\.Ex -std/ && !root { next }
/^\.Ex -std/ && ntable > 0 { exit_status(); replaced_exit = 1; next }
/^\.Sh "SEE ALSO"/ && !root { print; print ".Xr idflow 1 ,"; see_also = 2; next }
/^\.Sh "SEE ALSO"/ && root { printf "%s", after }
/^\.Sh AUTHORS/ && !root {
    if (see_also == 1) { print ".Sh \"SEE ALSO\""; print ".Xr idflow 1" }
    exit
}
/^\./ { pending_paragraph = 0; print; next }
# The last paragraph of a command's help (GlobalOptions.helpNote) points at --help-hidden and this page: the
# reference above says it in a page.
/^The configuration options \(--profile, / && configured { pending_paragraph = 0; next }
{
    if (pending_paragraph) print ".Pp"
    pending_paragraph = 0
    print sentences($0)
}
END {
    if (root && !replaced_exit) { print "man-sections.awk: no exit-code table found in the description" > "/dev/stderr"; exit 1 }
}
