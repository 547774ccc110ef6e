"""Monte Carlo statistics, betting and plots shared by the games."""
