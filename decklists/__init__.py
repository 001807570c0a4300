"""Published decklists and what players do with them: publishing, legality in every format,
likes, follows, comments with moderation, search and popularity."""
