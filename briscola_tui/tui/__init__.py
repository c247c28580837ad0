"""The Textual app: `app` (BriscolaApp), `netapp` (the app `host`, `join` and `watch`
open), `screens/` (one module per screen, with its `.tcss`) and `widgets/`. The only
package that imports textual; it reads tables through `tables.controller`."""
