#!/bin/sh
# Installs the unpacked mtworkbench folder for the current user: a command on PATH
# (~/.local/bin), the menu entry, the icon and the *.mtwb.json file type.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
mkdir -p "$HOME/.local/bin" "$data/applications" "$data/mime/packages" "$data/icons/hicolor/256x256/apps" \
         "$data/icons/hicolor/scalable/apps" "$data/icons/hicolor/256x256/mimetypes"
ln -sf "$here/mtworkbench" "$HOME/.local/bin/mtworkbench"
sed "s|^Exec=mtworkbench|Exec=\"$here/mtworkbench\"|" "$here/share/mtworkbench.desktop" > "$data/applications/mtworkbench.desktop"
cp "$here/share/mtworkbench-mime.xml" "$data/mime/packages/mtworkbench.xml"
cp "$here/share/mtworkbench.png" "$data/icons/hicolor/256x256/apps/mtworkbench.png"
cp "$here/share/mtworkbench.svg" "$data/icons/hicolor/scalable/apps/mtworkbench.svg"
cp "$here/share/mtworkbench.png" "$data/icons/hicolor/256x256/mimetypes/application-x-mtworkbench-project.png"
command -v update-mime-database >/dev/null && update-mime-database "$data/mime" || true
command -v update-desktop-database >/dev/null && update-desktop-database "$data/applications" || true
command -v xdg-mime >/dev/null && xdg-mime default mtworkbench.desktop application/x-mtworkbench-project || true
echo "installed: run 'mtworkbench', or double-click a *.mtwb.json file"
