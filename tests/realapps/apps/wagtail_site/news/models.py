"""The newsroom's content: a news index, news pages (date, intro, body, tags) and an author snippet."""

from django.db import models
from modelcluster.contrib.taggit import ClusterTaggableManager
from modelcluster.fields import ParentalKey
from taggit.models import TaggedItemBase
from wagtail.admin.panels import FieldPanel
from wagtail.fields import RichTextField
from wagtail.models import Page
from wagtail.search import index
from wagtail.snippets.models import register_snippet


class NewsIndexPage(Page):
    intro = models.CharField(max_length=250, blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro")]
    subpage_types = ["news.NewsPage"]


class NewsPageTag(TaggedItemBase):
    content_object = ParentalKey("news.NewsPage", related_name="tagged_items", on_delete=models.CASCADE)


class NewsPage(Page):
    date = models.DateField("Post date")
    intro = models.CharField(max_length=250)
    body = RichTextField(blank=True)
    tags = ClusterTaggableManager(through=NewsPageTag, blank=True)

    search_fields = [*Page.search_fields, index.SearchField("intro"), index.SearchField("body")]
    content_panels = [*Page.content_panels, FieldPanel("date"), FieldPanel("intro"), FieldPanel("body"),
                      FieldPanel("tags")]
    parent_page_types = ["news.NewsIndexPage"]
    subpage_types: list[str] = []


@register_snippet
class Author(models.Model):
    name = models.CharField(max_length=100)
    job_title = models.CharField(max_length=100, blank=True)
    email = models.EmailField(blank=True)

    panels = [FieldPanel("name"), FieldPanel("job_title"), FieldPanel("email")]

    def __str__(self) -> str:
        return self.name
