"""What the site tells a user: notices about a subject (a deck, a decklist, a comment) named
by kind and id, written by the apps that cause them; the unread count and the email digest."""
