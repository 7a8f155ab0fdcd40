"""The balance lab: `meeple report` and `meeple compare`.

One road, one module per step: `collect` plays a match and keeps a record of it; `backends` plays many (in this
process, in worker processes, or on a Dask cluster through `cluster`); `figures` and `pairs` work out the
figures with their intervals (`stats`); `tables` and `page` write them as text, CSV and one HTML page;
`command` is what the command line runs. `overrides` makes the changed copy of a game for `compare --set`.
"""
