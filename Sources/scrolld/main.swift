print("scrolld")
