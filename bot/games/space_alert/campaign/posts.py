"""What a campaign's own clock posts (issue 25), staged in the outbox with the change that makes it due.

A vote closed (by its deadline or the last press), the next mission announced, the repairs closed
and the next vote opened: each is a campaign change that makes a channel post due.  Sent straight
after the commit, a crash in between lost it (or, when the send went out and the process died
before forgetting it, a restart could post it twice).  So the posts are written to the flights'
outbox (`Storage.stage_post`) in the same transaction as the change, as `handoff.follow_up`
payloads in the campaign's own ordered queue (`campaign:<id>`, see `queue_of`), and go out after
the commit through the flights' ordered sender (`ChannelPosts.post_follow_up`), which deletes each
row once it is out.  A process that starts (or takes the campaign's server over) sends the rows
it finds (`ChannelPosts.restore`), after looking each one up among the bot's recent messages in
the channel, so none goes out twice (`FollowUpPost`).  One mechanism for the flights' and the
campaign's posts; the campaign adds only its queue's name.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from bot.games.space_alert.campaign.handoff import send_follow_up

log = logging.getLogger(__name__)

QUEUE_PREFIX = "campaign:"


def queue_of(campaign_id: str) -> str:
    """The outbox queue of a campaign's own posts (the outbox's `flight_id` column names queues)."""
    return f"{QUEUE_PREFIX}{campaign_id}"


@dataclass
class Staged:
    """The posts one campaign change staged: `stage` inside the change's transaction, `send`
    after it committed (never before: a rolled-back change posts nothing)."""

    bot: Any
    queue: str
    guild_id: int
    rows: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    async def stage(self, payload: dict[str, Any]) -> None:
        """One post into the outbox, in the caller's unit of work.  `at` bounds the look-up of a
        restored row (only messages since then can be it); `guild_id` says which process sends it
        when several share the database."""
        payload = {**payload, "guild_id": self.guild_id, "at": self.bot.clock()}
        self.rows.append((await self.bot.storage.stage_post(self.queue, payload), payload))

    async def send(self) -> None:
        """Queue the staged posts in the campaign's ordered outbox and wait until they are out
        (the flights' sender: 429s are waited out, each row deleted once its post is out)."""
        rows, self.rows = self.rows, []
        if not rows:
            return
        mission: Any = self.bot.get_cog("Mission")
        posts: Any = getattr(getattr(mission, "flights", None), "posts", None)
        if posts is None:  # no flights loaded (a tool): sent at once, each row forgotten once out
            for row, payload in rows:
                channel: Any = self.bot.get_channel(int(payload["channel_id"]))
                if channel is not None:
                    await send_follow_up(self.bot, channel, payload)
                await self.bot.storage.delete_post(row)
            return
        for row, payload in rows:
            posts.post_follow_up(self.queue, payload, row_id=row)
        await posts.retire(self.queue)
