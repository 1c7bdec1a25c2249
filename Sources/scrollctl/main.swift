print("scrollctl")
