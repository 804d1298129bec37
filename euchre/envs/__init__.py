"""Environments for research: the deal as OpenSpiel, PettingZoo and Gymnasium games."""
