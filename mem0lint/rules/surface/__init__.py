"""Rules on the client surface beyond search filters (issue 13): one rule per module."""
