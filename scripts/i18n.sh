#!/usr/bin/env bash
# Translation workflow: extract msgids → update catalogs → compile .mo (gitignored).
#   scripts/i18n.sh            # extract + update + compile
#   scripts/i18n.sh extract    # only regenerate locales/messages.pot
#   scripts/i18n.sh compile    # only compile .po → .mo
# The bot loads only the compiled .mo files (pip install compiles them through hatch_build.py;
# after editing a .po in a checkout, run this script or `scripts/i18n.sh compile`).
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL="${PYBABEL:-$( [ -x .venv/bin/pybabel ] && echo .venv/bin/pybabel || echo pybabel )}"
PYTHON="${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}"
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
  # each catalog's parsed form beside its .mo (bot/render/catalog_store.py; the bot checks it is the .mo's)
  "$PYTHON" -c 'import importlib.util as u, pathlib as p
s = u.spec_from_file_location("s", "bot/render/catalog_store.py"); m = u.module_from_spec(s); s.loader.exec_module(m)
m.store_all(p.Path("locales"))'
}

case "$step" in
  extract) extract ;;
  update) update ;;
  compile) compile ;;
  all) extract; update; compile ;;
  *) echo "usage: $0 [extract|update|compile|all]" >&2; exit 2 ;;
esac
