"""Play tools: Tactical Assault combat odds and campaigns, Red Code crew economy and visual
field, Red Mittens goldfish (the Django side of the game packages)."""
