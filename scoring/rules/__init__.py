"""One module per rule set, each exposing ``RULESET`` (and optionally ``UNSCORABLE``); see scoring.ruleset."""
