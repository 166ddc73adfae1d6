#!/usr/bin/env bash
# Debian's chromium as Playwright launches it, without the address bar's popups: headless Chromium
# makes them for every window, in a renderer of their own (chrome://omnibox-popup.top-chrome), and
# that renderer took about a ninth of the browser tests' processor. Chromium keeps only the last
# --disable-features it is given and Playwright passes its own, so every list is merged into one.
set -euo pipefail
arguments=()
disabled=(WebUIOmniboxPopup WebUIOmniboxAimPopup)
for argument in "$@"; do
  case $argument in
    --disable-features=*) disabled+=("${argument#--disable-features=}") ;;
    *) arguments+=("$argument") ;;
  esac
done
IFS=,
exec /usr/bin/chromium "${arguments[@]}" "--disable-features=${disabled[*]}"
