"""The jinja2 templates of the reports and replies, shipped inside the installed package as
``pbem.templates``.

This folder is a package only so that the build can ship it and :mod:`importlib.resources`
can find it, in a wheel and in an editable install alike; it holds no code.
"""
