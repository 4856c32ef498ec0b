#!/usr/bin/env bash
# Translation workflow: extract msgids → update catalogs → compile .mo (gitignored).
#   scripts/i18n.sh            # extract + update + compile
#   scripts/i18n.sh extract    # only regenerate locales/messages.pot
#   scripts/i18n.sh compile    # only compile .po → .mo
# Runtime does not need the .mo files: bot.i18n compiles a newer .po in memory.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL="${PYBABEL:-$( [ -x .venv/bin/pybabel ] && echo .venv/bin/pybabel || echo pybabel )}"
LOCALES=(zh_CN en)
step="${1:-all}"

extract() {
  "$PYBABEL" extract -F babel.cfg -k N_ --no-location --sort-output --omit-header \
    -o locales/messages.pot .
}

update() {
  for loc in "${LOCALES[@]}"; do
    po="locales/$loc/LC_MESSAGES/messages.po"
    if [ -f "$po" ]; then
      "$PYBABEL" update -i locales/messages.pot -d locales -l "$loc" --no-fuzzy-matching --ignore-obsolete
    else
      "$PYBABEL" init -i locales/messages.pot -d locales -l "$loc"
    fi
  done
}

compile() {
  "$PYBABEL" compile -d locales --statistics
}

case "$step" in
  extract) extract ;;
  update) update ;;
  compile) compile ;;
  all) extract; update; compile ;;
  *) echo "usage: $0 [extract|update|compile|all]" >&2; exit 2 ;;
esac
