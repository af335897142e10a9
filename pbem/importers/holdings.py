"""Who holds each share and train a record names, as the recording platform saw it.

A record names exact certificates (``"MKT_3"``, read as a :class:`~pbem.engine.ids.ShareId`)
and exact trains (``"2-1"``, a :class:`~pbem.engine.ids.TrainId`); to our rules
the shares of a corporation are alike, and so are the trains of one type, so our engine's
own indices need not match the record's. Two orders depend on the exact piece:

* a redemption from a player (1870 rules: share redemption) pays the player holding the
  named share. Shares also move without a record action — a presidency swap hands the new
  president's shares to the old one (1830 rules 5.5) — so the share's last buyer is not
  always its holder. The platform hands over the shares the new president received first;
  :meth:`RecordHoldings.follow` does the same, moving the record's ids so that every
  holder has as many of them as our engine gives it certificates.
* a train bought from another corporation is sold by the corporation holding the named
  train, which is the last corporation the record shows buying it.

The share holders are our engine's owners (:class:`~pbem.engine.values.Owner`: a player,
``POOL``, or ``IPO``, the offering and the treasury); a train's holder is a corporation's
symbol or ``"pool"``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pbem.engine.ids import ShareId, TrainId
from pbem.engine.state import IPO, GameState, Owner

PRESIDENT_INDEX = 0
"""The record names a corporation's president's certificate ``<sym>_0``."""


@dataclass
class RecordHoldings:
    """The record's share ids by corporation and holder, in the order each holder received
    them, and the holder of each train id the record has seen bought or discarded.

    ``shares[sym][holder]`` is a list of share ids; ``trains[train_id]`` is a corporation's
    symbol or ``"pool"``; a train id not in ``trains`` is still in the depot.
    """

    shares: dict[str, dict[Owner, list[ShareId]]] = field(default_factory=dict)
    trains: dict[TrainId, str] = field(default_factory=dict)
    seen: tuple[Owner, ...] = ()
    """Our engine's certificate owners when last followed (only what changed is followed)."""

    @classmethod
    def at_start(cls, certificates: dict[str, int]) -> RecordHoldings:
        """Every share in its corporation's offering: ``certificates`` maps each corporation
        to its number of certificates (ids ``<sym>_0`` .. ``<sym>_<n-1>``)."""
        return cls({sym: {IPO: [ShareId(sym, i) for i in range(n)]} for sym, n in certificates.items()})

    def copy(self) -> RecordHoldings:
        """An independent copy."""
        return RecordHoldings({sym: {h: list(ids) for h, ids in by.items()} for sym, by in self.shares.items()},
                              dict(self.trains), self.seen)

    def holder(self, share_id: ShareId) -> Owner | None:
        """Who holds ``share_id`` now, or None for an id the record's title does not have."""
        for holder, ids in self.shares.get(share_id.corporation, {}).items():
            if share_id in ids:
                return holder
        return None

    def move_share(self, share_id: ShareId, to: Owner) -> None:
        """The record moves ``share_id`` to ``to`` (last among what ``to`` holds)."""
        by_holder = self.shares.setdefault(share_id.corporation, {})
        for ids in by_holder.values():
            if share_id in ids:
                ids.remove(share_id)
                break
        by_holder.setdefault(to, []).append(share_id)

    def return_partial(self, sym: str, holder: Owner, seller: Owner, percent: int, unit: int) -> None:
        """A sale of part of the president's certificate (a bundle naming more than the
        ``percent`` sold): the seller gets back ``percent`` in ``unit`` shares, the ones
        ``holder`` (where the sale went) received first, as the platform hands them back
        (18xx.games' share pool); nothing when ``percent`` is 0."""
        pres_id = ShareId(sym, PRESIDENT_INDEX)
        for _ in range(max(percent, 0) // unit):
            ordinary = [i for i in self.shares.get(sym, {}).get(holder, []) if i != pres_id]
            if not ordinary:
                return
            self.move_share(ordinary[0], seller)

    def follow(self, state: GameState) -> None:
        """Move share ids so each holder has as many as our engine gives it certificates.

        The president's certificate id goes to the holder of our president's certificate.
        Of the ordinary ids, a holder with more than our engine gives it hands over the ones
        it received first, and they go to the holders with fewer, in seat order (players),
        then the pool and the offering — as the platform picks the shares a new president
        hands over. A move the record shows (a buy or a sale) is applied before this, with
        :meth:`move_share`, so only moves without a record action are guessed here.
        """
        certs = state.certificates
        owners = tuple(cert.owner for cert in certs)
        if owners == self.seen:
            return
        if len(owners) == len(self.seen):
            changed = {cert.corporation for cert, old in zip(certs, self.seen) if cert.owner != old}
        else:
            changed = {cert.corporation for cert in certs}
        self.seen = owners
        president: dict[str, Owner] = {}
        counts: dict[str, Counter[Owner]] = {sym: Counter() for sym in changed}
        for cert in certs:
            if cert.corporation not in changed:
                continue
            if cert.president:
                president[cert.corporation] = cert.owner
            else:
                counts[cert.corporation][cert.owner] += 1
        order = {name: i for i, name in enumerate(state.seats)}
        for sym in changed:
            by_holder = self.shares.setdefault(sym, {})
            wanted = counts[sym]
            pres_id = ShareId(sym, PRESIDENT_INDEX)
            if sym in president and self.holder(pres_id) != president[sym]:
                self.move_share(pres_id, president[sym])
            spare: list[ShareId] = []
            for holder, ids in by_holder.items():
                ordinary = [i for i in ids if i != pres_id]
                extra = len(ordinary) - wanted.get(holder, 0)
                if extra > 0:
                    for share_id in ordinary[:extra]:
                        ids.remove(share_id)
                        spare.append(share_id)
            if not spare:
                continue
            for holder in sorted(wanted, key=lambda h: (order.get(h.name, len(order)) if h.is_player else len(order), h)):
                have = sum(1 for i in by_holder.get(holder, []) if i != pres_id)
                while have < wanted[holder] and spare:
                    by_holder.setdefault(holder, []).append(spare.pop(0))
                    have += 1
            if spare:  # more ids than our engine has certificates: keep them in the offering
                by_holder.setdefault(IPO, []).extend(spare)
