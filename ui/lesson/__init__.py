"""The lesson (/lesson): the article's §1–§10 as projected scenes; see deck.py, data.py, text.py."""
