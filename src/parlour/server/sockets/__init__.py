"""The server's sockets: the pages' WebSockets (``/ws/{game_id}``, ``/ws/table/{table_id}``) and the room
handler that turns one message of a page into the owner's answers."""
