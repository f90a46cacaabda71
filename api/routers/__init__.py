"""The HTTP API's routers, one per area: health, rules, score, vision (recognize, analyze) and the page."""
