func storyCrawl(_ client: SiteClient) async -> [StoryRow] { [] }
