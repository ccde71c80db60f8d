"""The table in the browser (`tabletop serve`): Starlette is imported only by app.py."""
