"""What the bot said to Discord, read from SimCord's request log: the message each call sends
or edits, its markdown texts and its plain ones (labels, footers, alt texts)."""

from __future__ import annotations

from typing import Any

import simcord


def message_body(call: simcord.HttpLogEntry) -> dict[str, Any] | None:
    """The message a REST call sends or edits (a new message, an edit, an interaction's
    answer or follow-up), or None."""
    body = call.json if isinstance(call.json, dict) else None
    if body is None:
        return None
    if call.path.endswith("/callback"):
        body = body.get("data")
        if not isinstance(body, dict):
            return None
    if not {"content", "embeds", "components"} & set(body):
        return None
    return body


def discord_texts(body: dict[str, Any]) -> list[str]:
    """The markdown texts of a message: its content, its embeds' titles, descriptions,
    field names and values (footers and author names show no markdown), and its layout's
    text displays."""
    texts = [body.get("content") or ""]
    texts += [str(c.get("content") or "") for c in components(body.get("components") or [])]
    for embed in body.get("embeds") or []:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        for f in embed.get("fields") or []:
            texts += [f.get("name") or "", f.get("value") or ""]
    return texts


def plain_texts(body: dict[str, Any]) -> list[str]:
    """The texts Discord shows without markdown: footers, authors, labels, alt texts."""
    texts: list[str] = []
    for embed in body.get("embeds") or []:
        texts += [(embed.get("footer") or {}).get("text") or ""]
        texts += [(embed.get("author") or {}).get("name") or ""]
    texts += [a.get("description") or "" for a in body.get("attachments") or []]
    texts += [str(c.get("label") or "") for c in components(body.get("components") or [])]
    return texts


def components(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for row in rows:
        found.append(row)
        found += components(row.get("components") or [])
    return found


def all_texts(env: simcord.Env) -> list[str]:
    """Every text of every message the bot sent or edited, markdown or plain."""
    said: list[str] = []
    for call in env.http_requests:
        body = message_body(call)
        if body is not None:
            said += discord_texts(body) + plain_texts(body)
    return [text for text in said if text]
