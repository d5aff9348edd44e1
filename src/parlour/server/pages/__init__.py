"""The server's HTTP pages and API that every game shares: the home page, the player's pages, numbered
games, daily deals, challenges, reviews, rules pages, friends' tables over HTTP, health and readiness,
and the request helpers every router uses."""
