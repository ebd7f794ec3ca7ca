"""Web plumbing that knows no game and no league: the request cycle (one commit per request,
security headers), error pages, static files, the installable app, the public address,
rate limits, text from outside, health, languages, page helpers, charts and result cards.
"""
