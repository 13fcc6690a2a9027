import ArgumentParser
import IdFlowCore
@main struct IdFlow: ParsableCommand { func run() { print(IdFlowVersion.string) } }
