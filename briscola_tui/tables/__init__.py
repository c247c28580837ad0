"""The table controllers: a table as the screens drive and read it, in this process
(`offline`) or over the network (`network`), behind one interface (`controller`).
No textual here: a controller runs in worker threads and knows nothing of a screen."""
