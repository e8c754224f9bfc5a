"""The sandbox page's own words (its toolbar, composer and buttons) in English: each is the
text SimCord's page writes, which the sandbox's script replaces with the page's language."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "sandbox.page.viewing_as": "Viewing as",
    "sandbox.page.refresh": "Refresh preview",
    "sandbox.page.messages": "Messages",
    "sandbox.page.capture": "Capture",
    "sandbox.page.inspector": "Inspector",
    "sandbox.page.more": "More",
    "sandbox.page.end_session": "End preview session",
    "sandbox.page.back": "Back",
    "sandbox.page.view_response": "View response",
    "sandbox.page.message": "Message",
    "sandbox.page.message_channel": "Message #{channel}",
    "sandbox.page.edit_message": "Edit message",
    "sandbox.page.commands_only": "You can use application commands here",
    "sandbox.page.send": "Send",
    "sandbox.page.older": "Load earlier messages",
    "sandbox.page.newer": "Newer messages",
    "sandbox.page.jump_latest": "New messages · jump to latest",
    "sandbox.page.empty_channel": "No messages in this channel.",
    "sandbox.page.no_messages": "No visible messages.",
    "sandbox.page.search_messages": "Search messages",
    "sandbox.page.find_message": "Find a message",
    "sandbox.page.search": "Search",
    "sandbox.page.previous": "Previous",
    "sandbox.page.next": "Next",
    "sandbox.page.jump_to_id": "Jump to message ID",
    "sandbox.page.focus_message": "Focus message",
    "sandbox.page.select_option": "Select an option",
    "sandbox.page.select_options": "Select one or more options",
    "sandbox.page.activity": "Activity",
    "sandbox.page.recent_activity": "Recent activity",
    "sandbox.page.diagnostics": "Diagnostics",
    "sandbox.page.technical_details": "Technical details",
}
