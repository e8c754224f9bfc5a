"""Las palabras propias de la página del sandbox (su barra, el cuadro de mensaje y sus
botones) en español."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "sandbox.page.viewing_as": "Viendo como",
    "sandbox.page.refresh": "Actualizar vista",
    "sandbox.page.messages": "Mensajes",
    "sandbox.page.capture": "Capturar",
    "sandbox.page.inspector": "Inspector",
    "sandbox.page.more": "Más",
    "sandbox.page.end_session": "Terminar la sesión",
    "sandbox.page.back": "Volver",
    "sandbox.page.view_response": "Ver respuesta",
    "sandbox.page.message": "Mensaje",
    "sandbox.page.message_channel": "Enviar mensaje a #{channel}",
    "sandbox.page.edit_message": "Editar mensaje",
    "sandbox.page.commands_only": "Aquí puedes usar comandos de aplicación",
    "sandbox.page.send": "Enviar",
    "sandbox.page.older": "Cargar mensajes anteriores",
    "sandbox.page.newer": "Mensajes más recientes",
    "sandbox.page.jump_latest": "Mensajes nuevos · ir al último",
    "sandbox.page.empty_channel": "No hay mensajes en este canal.",
    "sandbox.page.no_messages": "No hay mensajes visibles.",
    "sandbox.page.search_messages": "Buscar mensajes",
    "sandbox.page.find_message": "Buscar un mensaje",
    "sandbox.page.search": "Buscar",
    "sandbox.page.previous": "Anterior",
    "sandbox.page.next": "Siguiente",
    "sandbox.page.jump_to_id": "Ir a un mensaje por su ID",
    "sandbox.page.focus_message": "Ir al mensaje",
    "sandbox.page.select_option": "Elige una opción",
    "sandbox.page.select_options": "Elige una o varias opciones",
    "sandbox.page.activity": "Actividad",
    "sandbox.page.recent_activity": "Actividad reciente",
    "sandbox.page.diagnostics": "Diagnóstico",
    "sandbox.page.technical_details": "Detalles técnicos",
}
