"""The endpoints of the HTTP API, one router module per resource: the live
games (:mod:`~remis.service.routes.games`), the stateless searches
(:mod:`~remis.service.routes.searches`) and the page's translations
(:mod:`~remis.service.routes.translations`).  Each module has a
``router(services)`` that builds its :class:`fastapi.APIRouter` from the
:class:`~remis.service.routes.common.Services` of one application."""
