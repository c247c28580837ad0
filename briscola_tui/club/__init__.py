"""A club: a NATS server that relays and keeps bytes for its members, trusted for nothing but
delivery (docs/network.md, "Beyond the LAN: a club"). The server side (`state`, `config`,
`tls`, `server`, `members`), the member side (`invite`, `joined`, `connect`) and what goes
through it (`stream`, `sync`). Only `connect`, `server` and `sync` import nats-py (the `club`
extra), when a club command runs.
"""
