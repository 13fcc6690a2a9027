#!/usr/bin/env bash
# Regenerates man/: one page per command (man/idflow.1, man/idflow-login-pkce.1, man/idflow-token-get.1, …) from
# the command tree with swift-argument-parser's `generate-manual --multi-page`, which names them idflow.token.get.1;
# they are renamed with dashes, and pages no longer generated are removed (and `idflow help`, ArgumentParser's
# spelling of --help, gets none). The date is fixed so regenerating an unchanged tree changes nothing.
#
# What every command or several take is written once, in idflow.1, and a command's page names idflow(1) in SEE
# ALSO: the configuration options (GlobalOptions, hidden from each command's --help, so generate-manual leaves
# them out of the pages; idflow.1's CONFIGURATION OPTIONS is made from the group as `idflow doctor --help-hidden`
# prints it), --client-secret-file (with its setting, clientSecret, there, naming the commands that take it),
# --version, --help and the exit codes; and, under SHARED OPTIONS, each option item that several pages carry
# word for word, which each of those pages then names in one item that sends the reader there.
#
# scripts/man-sections.awk adds what the generator cannot: in idflow.1 the top-level commands' pages (COMMANDS),
# the configuration options, each with where its setting is read from (scripts/manual/configuration.mdoc, which
# ManualConfigurationSectionTests renders from the settings' declaration), the shared options, ENVIRONMENT,
# FILES, EXIT STATUS (the table of `idflow --help`) and EXAMPLES from scripts/manual/sections.mdoc; in every page,
# discussions' blank lines and examples turned into mdoc, and the rest of a long discussion from
# scripts/manual/details/PAGE.txt. A command's page has NAME, SYNOPSIS (its arguments), DESCRIPTION (its help's
# discussion, then its own options) and SEE ALSO.
# man/ holds only the pages, at most 50,904 bytes (`du -sb man` at most 55,000, a third of the single page's
# 166 KB; GeneratedFilesTests); their inputs are in scripts/manual/. groff must render every page without a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir "$out/generated" "$out/pages"
swift package --allow-writing-to-directory "$out/generated" generate-manual --configuration debug --date 2026-11-21 \
    --authors "idflow maintainers" --multi-page --output-directory "$out/generated" >/dev/null
# `idflow help COMMAND` is ArgumentParser's spelling of `idflow COMMAND --help`: no command of its own, no page.
rm "$out/generated/idflow.help.1"
# --client-secret-file sets the clientSecret setting, which has no configuration option: idflow.1 describes it
# there once, naming the commands that take it, and their pages leave it out.
takers=$(grep -l '^\.It Fl -client-secret-file ' "$out"/generated/idflow.*.1 | sed 's|.*/idflow\.||; s|\.1$||; s|\.| |g' \
    | LC_ALL=C sort | paste -sd, -)
bin=$(swift build --show-bin-path)/idflow
[ -x "$bin" ] || swift build --product idflow >/dev/null
COLUMNS=1000 "$bin" doctor --help-hidden | awk '/^CONFIGURATION OPTIONS:$/ { on = 1; next } on && /^$/ { exit } on' \
    > "$out/options"
for page in "$out"/generated/idflow.*.1; do
    name=$(basename "$page" .1)
    abstract=$(sed -n 's/^\.Nd "\(.*\)"$/\1/p' "$page")
    printf '%s\t%s\n' "${name//./-}" "$abstract"
done | LC_ALL=C sort > "$out/listed"
# COMMANDS lists the top-level commands; a group's page (idflow-token.1) lists its own commands' pages.
awk -F '\t' 'NR == FNR { group[$1] = 1; next } { for (g in group) if (index($1, g "-") == 1) next; print }' \
    "$out/listed" "$out/listed" > "$out/commands"
for page in "$out"/generated/*.1; do
    name=$(basename "$page")
    # scripts/manual/details/idflow-sandbox.txt, written as a help discussion is, goes on from the command's discussion, before
    # its options: what is too long for --help (at most 60 lines at 80 columns) but belongs in the page.
    details=scripts/manual/details/$(basename "${name//./-}" -1).txt
    if [ -f "$details" ]; then
        awk -v details="$details" '/^\.Bl -tag/ && !done { print ""; while ((getline line < details) > 0) { gsub(/\\/, "\\e", line); print line }; done = 1 } 1' \
            "$page" > "$out/spliced" && mv "$out/spliced" "$page"
    fi
    if [ "$name" = idflow.1 ]; then
        awk -v root=1 -v options="$out/options" -v commands="$out/commands" -v settings=scripts/manual/configuration.mdoc \
            -v sections=scripts/manual/sections.mdoc \
            -v takers="$takers" -v moved_options=client-secret-file -f scripts/man-sections.awk "$page" > "$out/pages/idflow.1"
    else
        # idflow.token.get.1 is `idflow token get`; it accepts the configuration options when its help lists them.
        path=${name#idflow.}
        path=${path%.1}
        configured=0
        if COLUMNS=1000 "$bin" ${path//./ } --help-hidden 2>/dev/null | grep -qx 'CONFIGURATION OPTIONS:'; then configured=1; fi
        awk -v options="$out/options" -v configured=$configured -v moved_options=client-secret-file -f scripts/man-sections.awk "$page" \
            > "$out/pages/${name//./-}"
    fi
done
# "idflow-token-get.1" came out as "idflow-token-get-1": put the section's dot back.
for page in "$out"/pages/*-1; do mv "$page" "${page%-1}.1"; done
awk -v shared_pass=1 -f scripts/man-sections.awk "$out"/pages/*.1
for page in "$out"/pages/*.1.new; do mv "$page" "${page%.new}"; done
if command -v groff >/dev/null; then
    warnings=$(for page in "$out"/pages/*.1; do groff -ww -z -mandoc -Tutf8 "$page" 2>&1 | sed "s|^|$(basename "$page"): |"; done)
    if [ -n "$warnings" ]; then
        printf '%s\n' "$warnings" >&2
        echo "gen-man.sh: groff warns about the generated pages (see above)" >&2
        exit 1
    fi
else
    echo "gen-man.sh: groff is not installed; the pages were not checked for warnings" >&2
fi
rm -f man/*.1
cp "$out"/pages/*.1 man/
