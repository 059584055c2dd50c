import skippr

session = skippr.Session(skippr.Config.discover().get_pipeline("orders"))
session.sync(once=True)
