"""The demo model's data: the corpus it is trained on (corpus, grammar, corpus_words), the
human-written evaluation sets (evalset), the reading rules' word lists, and the files they read."""
