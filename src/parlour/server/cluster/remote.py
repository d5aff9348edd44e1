"""A page connected to another process, as the table's owner sees it."""

from __future__ import annotations

import time

from parlour.games.base import GameDefinition
from parlour.server.cluster.channels import Publisher
from parlour.server.cluster.keys import conn_channel
from parlour.server.wire.outbox import Item, Outbox
from parlour.server.wire.wire import encode


class RemotePage:
    """A page connected to another process, as the owner sees it: its outbox publishes to Redis the
    very text a page connected here would be sent (in the page's language), which the relay passes on
    as it is."""

    def __init__(
        self, publisher: Publisher, conn: str, player_id: int, lang: str, definition: GameDefinition | None
    ) -> None:
        self.player_id = player_id
        self.lang = lang
        self.seen = time.monotonic()
        channel = conn_channel(conn)

        async def send(item: Item) -> None:
            await publisher.publish(channel, encode(item, definition, lang))

        self.outbox = Outbox(send)
