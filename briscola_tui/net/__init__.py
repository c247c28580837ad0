"""The network: `briscola host` (the table server) and `briscola join` / `watch` (the
client), over asyncio on real sockets; `commands` turns the command line into them."""
