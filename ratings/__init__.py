"""Ratings from results: the Bradley-Terry family and the multiplayer Elo family."""
