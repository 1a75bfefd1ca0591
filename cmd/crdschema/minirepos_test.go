package main

var ownRepos = []fixtureRepo{}
