"""A deck taken to the table: its exports (text, JSON, Markdown, BBCode, Tabletop Simulator,
proxies, tournament and unit sheets) and the site read without a signal (its manifest,
service worker and offline page)."""
