"""The browser front end: templates (Jinja) and static files (CSS, JavaScript, SVG), served by the server."""
