from validation.registry import registry


def site(request):
    """The games for the header's menus."""
    return {"site_games": registry.all()}
