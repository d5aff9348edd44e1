"""The wire of the server's sockets: the messages of the protocol (pydantic models), how a frame is read
and written, and each connection's outbox (a bounded queue and the task that sends it, in order)."""
