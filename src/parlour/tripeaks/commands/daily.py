"""``parlour tripeaks daily``: a day's TriPeaks deal as the database keeps it (decision 0050): its
commitment, and, only for a day that is over, its code and salt, so that anyone can check the deal was
fixed in advance. A day nobody has played yet is drawn now, as the server would draw it."""

from __future__ import annotations

import json
from datetime import date

import click

from parlour.cli.db import database_url_option
from parlour.cli.options import LANG_OPTION
from parlour.fairness import SCHEME
from parlour.i18n import gettext_for, labelled
from parlour.store import Store, StoreUnavailable
from parlour.store.daily import today
from parlour.store.rows import utcnow
from parlour.tripeaks.definition import DAILY, NAME


def _(lang: str, message: str) -> str:
    return gettext_for(lang, "store", message)


def _day(text: str | None) -> date:
    """Return the day asked for (today without one).

    Raises:
        click.BadParameter: not a date (YYYY-MM-DD), or a day that has not begun.
    """
    if text is None:
        return today()
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a date: YYYY-MM-DD", param_hint="--date") from None
    if day > today():
        raise click.BadParameter(f"{day} has not begun yet (UTC): its deal is not drawn", param_hint="--date")
    return day


@click.command("daily")
@click.option("--date", "day_text", default=None, help="The day (UTC), YYYY-MM-DD  [default: today]")
@click.option(
    "--rules",
    type=click.Choice(list(DAILY.rules)),
    default=DAILY.rules_keys[0],
    show_default=True,
    help="The rule set of the deal.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the day's deal as JSON.")
@database_url_option
@LANG_OPTION
def daily_command(
    day_text: str | None, rules: str, as_json: bool, database_url: str | None, lang: str
) -> None:
    """Print a day's TriPeaks deal: its date, rules and commitment (SHA-256 of CODE|SALT), and for a day
    that is over (UTC) its code and salt; today's code stays secret until the day ends."""
    day = _day(day_text)
    try:
        store = Store(database_url)
        store.upgrade()
    except (StoreUnavailable, ValueError) as error:
        raise click.ClickException(f"the database is not available: {error}") from error
    try:
        deal = store.daily_deal(NAME, rules, day)
    except StoreUnavailable as error:
        raise click.ClickException(f"the database is not available: {error}") from error
    finally:
        store.close()
    shown = deal.revealed(utcnow())
    body: dict[str, str] = {
        "date": day.isoformat(),
        "rules": rules,
        "scheme": SCHEME,
        "commitment": deal.commitment,
    }
    if shown:
        body.update(code=deal.code, salt=deal.salt)
    if as_json:
        click.echo(json.dumps(body, ensure_ascii=False))
        return
    click.echo(f"{labelled(_(lang, 'Daily deal'), lang)} {day.isoformat()} ({_(lang, DAILY.rules[rules])})")
    click.echo(f"{labelled(_(lang, 'Commitment'), lang)} {deal.commitment}")
    if shown:
        click.echo(f"{labelled(_(lang, 'Deal code'), lang)} {deal.code}")
        click.echo(f"{labelled(_(lang, 'Salt'), lang)} {deal.salt}")
    else:
        click.echo(_(lang, "Today's code and salt are shown when the day is over (UTC)."))
