"""`meeple serve`: a playtest table in the browser (docs/serve.md). `app.create_app` is the web application,
`tables` the matches it holds and what each seat's page is sent."""
