"""The library page was folded into the lesson's §2 (issue 38): its old address opens the scene."""

from ui.routing import open_scene

open_scene(2)
