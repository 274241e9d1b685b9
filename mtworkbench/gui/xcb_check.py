"""Before Qt starts on Linux: the system libraries Qt's GUI and its xcb (X11) plugin need.

Without them Qt aborts with "Could not load the Qt platform plugin "xcb"" and names
one library at best (often not the one missing). A minimal Debian or Ubuntu install
lacks several; ``missing_libraries`` tries to load each (as the plugin would), and
``advice`` names the packages that provide the missing ones. No Qt is imported here:
this runs before any Qt GUI module is imported (importing one without its
libraries fails too).
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Mapping

# The shared libraries Qt 6's xcb plugin (libqxcb.so and libQt6XcbQpa.so.6) links,
# with the Debian/Ubuntu package that provides each.
XCB_LIBRARIES: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libGL.so.1": "libgl1",
}

# What Qt's GUI module itself links (any platform plugin, offscreen included).
GUI_LIBRARIES: dict[str, str] = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libX11.so.6": "libx11-6",
}
PACKAGES = {**GUI_LIBRARIES, **XCB_LIBRARIES}


def _dlopen(name: str) -> bool:
    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def uses_xcb(platform: str = sys.platform, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether Qt will start its xcb (X11) plugin: Linux, and no other platform chosen.

    ``QT_QPA_PLATFORM`` decides when set (``offscreen``, ``wayland``: no xcb needed);
    otherwise a Wayland session gets Qt's Wayland plugin and anything else xcb.
    """
    if not platform.startswith("linux"):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(";")[0].split(":")[0] == "xcb"
    return not environ.get("WAYLAND_DISPLAY")


def missing_libraries(load: Callable[[str], bool] = _dlopen, xcb: bool = True) -> list[str]:
    """The libraries Qt needs (with ``xcb``: its X11 plugin's too) that ``load`` cannot open."""
    wanted = list(GUI_LIBRARIES) + ([n for n in XCB_LIBRARIES if n not in GUI_LIBRARIES] if xcb else [])
    return [name for name in wanted if not load(name)]


def advice(missing: list[str]) -> str:
    """What to tell the user: which libraries are missing and the command that installs them."""
    packages = sorted({PACKAGES[name] for name in missing})
    return (
        "mtworkbench cannot open its window: system libraries that Qt needs are missing: "
        + ", ".join(missing) + ".\n"
        "On Debian or Ubuntu install them with:\n"
        f"    sudo apt-get install {' '.join(packages)}\n"
        "(Other distributions: the packages providing these files; docs/install.md lists them.) "
        "The command-line tools work without them."
    )


def check_before_qt(load: Callable[[str], bool] | None = None, platform: str | None = None,
                    environ: Mapping[str, str] | None = None) -> str | None:
    """The message to print instead of starting Qt, or None when the window can start
    (always None off Linux: Qt's wheels bring what they need there)."""
    platform = sys.platform if platform is None else platform
    environ = os.environ if environ is None else environ
    if not platform.startswith("linux"):
        return None
    missing = missing_libraries(load or _dlopen, xcb=uses_xcb(platform, environ))
    return advice(missing) if missing else None
