#!/usr/bin/env bash
# Checks the table of Models/Cell/STEPS.md against the model and the code: every model step it names is an
# `inline` or `proctype` of Models/Cell/cell.pml, and every function it maps to is declared in its file, in
# its type, under its name and argument labels (`Type.name(label:_:)`, or `Type.name` for a property).
# Renaming or moving a mapped function makes this fail until the table follows.
set -euo pipefail
cd "$(dirname "$0")/.."
table=Models/Cell/STEPS.md
model=Models/Cell/cell.pml

failed=0
rows=0
fail() { echo "STEPS.md: $*"; failed=1; }

while IFS='|' read -r _ step file function _; do
    step=$(echo "$step" | tr -d '` '); file=$(echo "$file" | tr -d '` '); function=$(echo "$function" | tr -d '` ')
    [[ -z $step || $step == "modelstep" || $step == ---* ]] && continue
    rows=$((rows + 1))
    grep -qE "^(inline|proctype) ${step}\(" "$model" || fail "model step '$step' is not an inline or proctype of $model"
    if [[ ! -f $file ]]; then fail "$file (for $function) does not exist"; continue; fi
    type=${function%%.*}
    member=${function#*.}
    name=${member%%(*}
    grep -qE "^\s*(public |package |open |internal |private |fileprivate |final |@[A-Za-z]+ )*(class|enum|struct|extension|actor) ${type}\b" "$file" \
        || fail "$file declares no type or extension '$type' (for $function)"
    if [[ $member == *"("* ]]; then
        labels=${member#*(}; labels=${labels%)}
        # The declaration from `func name` up to the opening brace (at most 8 lines).
        declaration=$(awk -v pat="func ${name}(<[^>]*>)?\\\\(" '
            found == 0 && $0 ~ pat { found = 1 }
            found > 0 { print; if ($0 ~ /\{/) exit; if (++found > 8) exit }' "$file")
        if [[ -z $declaration ]]; then fail "$file has no 'func $name(' (for $function)"; continue; fi
        # Count the parameters: the labels in the table must match the declaration's.
        params=$(echo "$declaration" | tr '\n' ' ' | sed -E -e "s/.*func ${name}(<[^>]*>)?\(//" -e 's/->/ /g' \
            | awk '{ depth = 1; out = ""; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1);
                     if (c == "(" || c == "[" || c == "<") depth++; if (c == ")" || c == "]" || c == ">") depth--;
                     if (depth == 0) break; if (c == "," && depth == 1) c = "\n"; out = out c } print out }')
        declared=""
        if [[ -n $(echo "$params" | tr -d ' \n') ]]; then
            while read -r param; do
                [[ -z $param ]] && continue
                first=${param%%[ :]*}
                declared+="${first}:"
            done <<< "$params"
        fi
        [[ $declared == "$labels" ]] || fail "$file: func $name has labels ($declared), the table says ($labels)"
    else
        grep -qE "\b(var|let) ${name}\b" "$file" || fail "$file has no property '$name' (for $function)"
    fi
done < <(grep -E '^\| `' "$table")

if [[ $rows -eq 0 ]]; then fail "no rows read"; fi
if [[ $failed -ne 0 ]]; then echo "FAIL: the step table of the cell model"; exit 1; fi
echo "the cell model's step table matches the code ($rows rows)"
